import type { Catalogue } from './catalogue.ts';

/**
 * Messages of pickup appointments in both API languages: refusals (slot full, closed day, past
 * the cutoff) and the customer's pickup messages (`subscribe/message`), which are stored as a
 * kind with parameters and translated when read.
 */
export const pickupsMessages = {
  pickupNotFound: { en: 'Pickup not found.', 'zh-CN': '预约不存在。' },
  pickupSlotFull: {
    en: 'The {slot} slot of {date} is full. Choose another slot or date.',
    'zh-CN': '{date} {slot} 时段已约满，请选择其他时段或日期。',
  },
  pickupClosed_sunday: {
    en: 'No pickups on Sundays ({date}).',
    'zh-CN': '周日（{date}）不提供取件。',
  },
  pickupClosed_holiday: {
    en: 'No pickups on Japanese public holidays ({date}: {holiday}).',
    'zh-CN': '日本法定节假日（{date}：{holiday}）不提供取件。',
  },
  pickupClosed_cutoff: {
    en: 'Bookings for {date} closed at {hour}:00 Japan time that day.',
    'zh-CN': '{date} 的预约已于当日日本时间 {hour}:00 截止。',
  },
  pickupClosed_tooFar: {
    en: 'Pickups can be booked at most {days} days ahead.',
    'zh-CN': '最多只能预约 {days} 天以内的取件。',
  },
  pickupPastCutoff: {
    en: 'This pickup can no longer be changed or cancelled: its cutoff ({hour}:00 Japan time on {date}) has passed.',
    'zh-CN': '该预约已过截止时间（{date} 日本时间 {hour}:00），不能再修改或取消。',
  },
  pickupNotBooked_cancelled: {
    en: 'This pickup is cancelled already.',
    'zh-CN': '该预约已取消。',
  },
  pickupNotBooked_pickedUp: {
    en: 'This pickup has been picked up already.',
    'zh-CN': '该预约已取件。',
  },
  pickupNoBoxes: {
    en: 'Expect at least one big carton or small parcel.',
    'zh-CN': '预计大箱数和小包数至少一项大于 0。',
  },
  pickupMessage_booked: {
    en: 'Pickup {pickupNo} booked: {region}, {date} {slot}.',
    'zh-CN': '预约 {pickupNo} 已成功：{region}，{date} {slot}。',
  },
  pickupMessage_changed: {
    en: 'Pickup {pickupNo} changed: {region}, {date} {slot}.',
    'zh-CN': '预约 {pickupNo} 已修改：{region}，{date} {slot}。',
  },
  pickupMessage_cancelled: {
    en: 'Pickup {pickupNo} cancelled: {reason}',
    'zh-CN': '预约 {pickupNo} 已取消：{reason}',
  },
  pickupMessage_pickedUp: {
    en: 'Pickup {pickupNo} picked up: its boxes are in storage order {storageNo}.',
    'zh-CN': '预约 {pickupNo} 已取件：货物已入库，入库单 {storageNo}。',
  },
  pickupRegion_tokyo: { en: 'Tokyo', 'zh-CN': '东京' },
  pickupRegion_osaka: { en: 'Osaka', 'zh-CN': '大阪' },
} as const satisfies Catalogue;
