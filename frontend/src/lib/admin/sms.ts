// How many SMS segments a text takes, as the server counts it (server/src/sms/gsm.rs): 160
// characters of the GSM alphabet in one text (153 each when longer; the extension characters take
// two), or 70 when one character is outside it (67 each; an emoji takes two).

const BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const EXTENSION = "^{}\\[~]|€\f";

/** Whether every character is in the GSM alphabet. */
export function isGsm(text: string): boolean {
  return Array.from(text).every((c) => BASIC.includes(c) || EXTENSION.includes(c));
}

/** The length the limit is counted in: septets, or UTF-16 units outside the alphabet. */
export function smsLength(text: string): number {
  if (isGsm(text)) return Array.from(text).reduce((sum, c) => sum + (EXTENSION.includes(c) ? 2 : 1), 0);
  return text.length;
}

/** How many segments `text` is sent as (0 when empty). */
export function segments(text: string): number {
  if (text === "") return 0;
  const length = smsLength(text);
  if (isGsm(text)) return length <= 160 ? 1 : Math.ceil(length / 153);
  return length <= 70 ? 1 : Math.ceil(length / 67);
}
