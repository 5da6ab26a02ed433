// qz-tray ships no types; the console uses a handful of its calls (client.ts).
declare module 'qz-tray' {
  const qz: any;
  export default qz;
}
