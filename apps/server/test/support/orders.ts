import { idCardCheckChar } from '@console/contract';

/** A recipient every order rule accepts (a real GB 11643 number for an adult), for order bodies in tests. */
export const validRecipient = {
  name: '王小明',
  idCard: '11010519800101123' + idCardCheckChar('11010519800101123'),
  phone: '13812345678',
  province: '浙江省',
  city: '杭州市',
  district: '西湖区',
  address: '文三路100号',
};
