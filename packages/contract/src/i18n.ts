import { z } from 'zod';

/** Languages the server answers in (Accept-Language); the console sends zh-chs as zh-CN. */
export const apiLanguages = ['zh-CN', 'en'] as const;
export type ApiLanguage = (typeof apiLanguages)[number];

/** A label in both product languages. */
export const i18nText = z.object({ zh: z.string(), en: z.string() });
export type I18nText = z.infer<typeof i18nText>;
