/** The common-password list of `@zxcvbn-ts/language-common` (its dictionary module, without the rest of the package). */
declare module '@zxcvbn-ts/language-common/dist/passwords.json.mjs' {
  const passwords: string[];
  export default passwords;
}
