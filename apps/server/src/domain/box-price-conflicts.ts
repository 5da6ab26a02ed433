/**
 * Spec §5: "Multiple prices for one JAN in one box ask for confirmation." A box holds many orders
 * (BOX-001 with ten orders), so the rule looks across every order of a box, not within one order
 * (issue 28 #12: ten orders in one box at ten prices passed without a prompt). Orders without a box
 * number are each their own box, which validateOrder already checks.
 *
 * Returns, per order index, the JANs whose price differs elsewhere in its box (each JAN once).
 */
export function boxPriceConflicts(
  orders: readonly ({
    boxNo: string | null;
    items: readonly { jan: string | null; unitPrice: number; currency: string }[];
  } | null)[],
): Map<number, string[]> {
  // box → JAN → the prices seen (currency with amount: 1200 JPY and 1200 CNY are not one price).
  const prices = new Map<string, Map<string, Set<string>>>();
  orders.forEach((o) => {
    if (!o?.boxNo) return;
    const byJan = prices.get(o.boxNo) ?? prices.set(o.boxNo, new Map()).get(o.boxNo)!;
    for (const it of o.items) {
      if (!it.jan) continue;
      (byJan.get(it.jan) ?? byJan.set(it.jan, new Set()).get(it.jan)!).add(`${it.currency} ${it.unitPrice}`);
    }
  });
  const out = new Map<number, string[]>();
  orders.forEach((o, i) => {
    if (!o?.boxNo) return;
    const byJan = prices.get(o.boxNo)!;
    const jans = [...new Set(o.items.map((it) => it.jan))].filter(
      (jan): jan is string => !!jan && byJan.get(jan)!.size > 1,
    );
    if (jans.length) out.set(i, jans);
  });
  return out;
}
