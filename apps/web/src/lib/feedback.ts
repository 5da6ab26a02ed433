/**
 * Toasts, notifications and dialogs for code outside React (the HTTP client). The app's
 * `<FeedbackBridge>` (inside antd's <App>) registers the themed, context-aware instances;
 * until then (or in a bare page) antd's static functions are loaded on demand, so lib/
 * never pulls antd into a chunk by itself.
 */
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';
import type { NotificationInstance } from 'antd/es/notification/interface';

export interface Feedback {
  message: MessageInstance;
  notification: NotificationInstance;
  modal: ModalHookAPI;
}

let current: Feedback | null = null;

export function setFeedback(f: Feedback | null) {
  current = f;
}

export async function feedback(): Promise<Feedback> {
  if (current) return current;
  // Per-component entries: importing the 'antd' barrel dynamically would pull all of antd into one chunk.
  const [message, notification, modal] = await Promise.all([
    import('antd/es/message'),
    import('antd/es/notification'),
    import('antd/es/modal'),
  ]);
  return {
    message: message.default,
    notification: notification.default,
    modal: modal.default as unknown as ModalHookAPI,
  };
}
