import { orderReviews } from '@console/contract';
import { call, callBlob, callUpload, saveBlob } from '@/lib';

/** The review calls (all AES: the client seals and opens them). Lists page with `usePagedQuery`. */
export const reviewsCall = orderReviews.orderReviews;
export const reviewOrdersCall = orderReviews.orderReviewOrders;
export const reviewItemsCall = orderReviews.orderReviewOrderItems;

/** `orderReview/create`: the file plain, the customer sealed beside it; silent, the page shows the refusal. */
export const submitReview = (file: File, customerId: number | undefined, progressId: string) => {
  const form = new FormData();
  form.append('file', file);
  return callUpload(orderReviews.createOrderReview, form, { silent: true }, { customerId, progressId });
};

export const deleteReview = (id: number) => call(orderReviews.deleteOrderReview, { id });
export const completeReview = (id: number, remarks: string) =>
  call(orderReviews.completeOrderReview, { id, remarks }, { silent: true });

export async function downloadReview(id: number, progressId: string) {
  const { blob, filename } = await callBlob(orderReviews.downloadOrderReviewItems, { id, progressId });
  saveBlob(blob, filename);
}

export async function downloadTemplate() {
  const { blob, filename } = await callBlob(orderReviews.downloadOrderReviewTemplate, {});
  saveBlob(blob, filename);
}
