/** Frame constants that are deployment choices rather than spec figures. */

/** The logistics-trajectory button opens this tracking page in a new window (EMS / Japan Post numbers). */
export const TRACKING_URL = 'https://trackings.post.japanpost.jp/services/srv/search/input?locale=en';
