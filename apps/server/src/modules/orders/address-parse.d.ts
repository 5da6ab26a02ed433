/** address-parse ships no types; orders.lookup.ts narrows what it uses. */
declare module 'address-parse';
