/**
 * Issue 11 finding 8: the address resolver kept labels in names ("收货人: 李雷，手机 139…" became
 * the name "李雷 手机", marked certain, and was saved). Labels are stripped, and a parse whose
 * fields hold leftovers is doubtful. The inputs are written the way shops, chat apps and
 * customers paste them.
 */
import { describe, expect, it } from 'vitest';
import { resolveAddressText, stripLabels } from '../src/modules/orders/address-resolve.ts';

const sure = (text: string) => {
  const r = resolveAddressText(text);
  expect(r.problems, `${text} → ${JSON.stringify(r)}`).toEqual([]);
  return r;
};

describe('address resolver: labels are not names', () => {
  const labelled: [string, { name: string; phone: string; district: string; address: string }][] = [
    [
      '收货人: 李雷，手机 13912345678，地址：浙江省杭州市西湖区文三路100号',
      { name: '李雷', phone: '13912345678', district: '西湖区', address: '文三路100号' },
    ],
    [
      '收件人：韩梅梅 电话:13812345678 收货地址: 广东省深圳市南山区科技园南区1栋',
      { name: '韩梅梅', phone: '13812345678', district: '南山区', address: '科技园南区1栋' },
    ],
    [
      '姓名 王小明 手机号 15012345678 详细地址 北京市朝阳区建国路88号SOHO现代城3号楼',
      { name: '王小明', phone: '15012345678', district: '朝阳区', address: '建国路88号SOHO现代城3号楼' },
    ],
    [
      '联系人:赵六\n联系电话:18612345678\n所在地区:上海市浦东新区\n详细地址:张江路500号',
      { name: '赵六', phone: '18612345678', district: '浦东新区', address: '张江路500号' },
    ],
    [
      '【收货人】陈晓 【手机号码】17712345678 【收货地址】四川省成都市武侯区人民南路四段1号',
      { name: '陈晓', phone: '17712345678', district: '武侯区', address: '人民南路四段1号' },
    ],
    [
      '收货人姓名：欧阳娜娜，联系方式：13600001111，收货地址：湖北省武汉市洪山区珞喻路1037号',
      { name: '欧阳娜娜', phone: '13600001111', district: '洪山区', address: '珞喻路1037号' },
    ],
    [
      '收货人：李雷；电话：+86 139-1234-5678；地址：浙江省 杭州市 西湖区 文三路100号',
      { name: '李雷', phone: '13912345678', district: '西湖区', address: '文三路100号' },
    ],
    [
      '收件人 : 周杰 , 手机 : 139 1234 5678 , 地址 : 江苏省南京市鼓楼区中山路1号',
      { name: '周杰', phone: '13912345678', district: '鼓楼区', address: '中山路1号' },
    ],
    [
      '李雷 手机 13912345678 浙江省杭州市西湖区文三路100号',
      { name: '李雷', phone: '13912345678', district: '西湖区', address: '文三路100号' },
    ],
    [
      '姓名:刘洋 电话:0571-88886666 地址:浙江省杭州市西湖区文三路100号',
      { name: '刘洋', phone: '0571-88886666', district: '西湖区', address: '文三路100号' },
    ],
  ];
  for (const [text, want] of labelled) {
    it(text.replace(/\n/g, '⏎'), () => {
      const r = sure(text);
      expect(r).toMatchObject(want);
      expect(r.districtCode).toMatch(/^\d{6}$/);
    });
  }

  it('unlabelled addresses parse as before', () => {
    expect(sure('张三 13812345678 浙江省杭州市西湖区文三路100号')).toMatchObject({
      name: '张三',
      province: '浙江省',
      city: '杭州市',
      districtCode: '330106',
    });
    expect(sure('李雷，13912345678，江苏省南京市鼓楼区中山路1号')).toMatchObject({ name: '李雷', district: '鼓楼区' });
    expect(sure('迪丽热巴·迪力木拉提 13900002222 新疆维吾尔自治区乌鲁木齐市天山区解放路1号').name).toBe(
      '迪丽热巴·迪力木拉提',
    );
    expect(sure('Zhang San 13812345678 北京市海淀区中关村大街1号').name).toBe('Zhang San');
  });

  it('label words inside a place or street stay: "阿里地区", "手机城"', () => {
    expect(sure('西藏自治区阿里地区噶尔县狮泉河镇1号 扎西 13900001111')).toMatchObject({
      name: '扎西',
      city: '阿里地区',
      district: '噶尔县',
    });
    expect(sure('广东省深圳市福田区华强北手机城3楼 张伟 13500001111').address).toBe('华强北手机城3楼');
  });

  it('stripLabels leaves a field boundary where each label was', () => {
    expect(stripLabels('收货人: 李雷，手机 13912345678，地址：浙江省杭州市')).toBe('李雷 13912345678 浙江省杭州市');
    expect(stripLabels('阿里地区噶尔县')).toBe('阿里地区噶尔县');
  });
});

describe('address resolver: leftovers make a parse doubtful', () => {
  const doubtful: [string, string][] = [
    ['李雷 备注 13912345678 浙江省杭州市西湖区文三路100号', 'addressNameLeftovers'],
    ['李雷2 13912345678 浙江省杭州市西湖区文三路100号', 'addressNameLeftovers'],
    ['李雷先生 13912345678 浙江省杭州市西湖区文三路100号', 'addressNameLeftovers'],
    ['收货人:李雷 手机:13912345678 地址:浙江省杭州市西湖区文三路100号 收货人:韩梅梅', 'addressSeveral'],
    ['张三 13812345678 电话：13900001111 浙江省杭州市西湖区文三路100号', 'addressSeveral'],
    ['浙江省杭州市西湖区文三路100号', 'addressNoName'],
    ['某地 某路 12号', 'addressNoProvince'],
  ];
  for (const [text, problem] of doubtful) {
    it(`${text} → ${problem}`, () => {
      expect(resolveAddressText(text).problems).toContain(problem);
    });
  }
});
