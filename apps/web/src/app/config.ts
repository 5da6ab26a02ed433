/** Frame constants that are deployment choices rather than spec figures. */

/** The logistics-trajectory button opens our public tracking page (features/orders/TrackingPage) in a new window. */
export const TRACKING_URL = '/home/tracking';
