/**
 * What Go's `hex.DecodeString` accepts: an even number of hexadecimal digits in any case (the
 * empty string included). The node reads ids, signatures and addresses through it.
 */
const HEX_BYTES = /^(?:[0-9a-fA-F]{2})*$/

/** Whether `hex.DecodeString` decodes `s` without an error. */
export const isHexBytes = (s: string): boolean => HEX_BYTES.test(s)
