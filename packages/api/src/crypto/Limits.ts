/** The crypto area's limits (spec 8.2 and what the spec left open; docs/decisions/1500-*). */

/** Quote validity, minutes (spec 8.2). */
export const quoteMinutesMin = 5
export const quoteMinutesMax = 1440
export const quoteMinutesDefault = 30
/** Bitcoin and Monero confirmations (spec 8.2). */
export const btcConfirmationsMin = 1
export const btcConfirmationsMax = 6
export const btcConfirmationsDefault = 3
export const xmrConfirmationsMin = 10
export const xmrConfirmationsMax = 30
export const xmrConfirmationsDefault = 10
/** Confirmations the token rails need (their chains finalise fast; not a setting). */
export const tokenConfirmations = 12
/** Addresses handed out past the last one paid before a wallet refuses another quote (BIP 44's 20). */
export const gapLimitMin = 1
export const gapLimitMax = 1000
export const gapLimitDefault = 20
/** Characters of a key, descriptor, address or view key as given. */
export const keyLengthMax = 1000
/** Digits of a decimal quantity or price before and after the point. */
export const decimalIntegerDigitsMax = 15
export const decimalPlacesMax = 12
/** Lots one specific-identification disposal may pick. */
export const picksMax = 500
/** Wallets a company may hold (archived ones included). */
export const walletsMax = 200
/** Rows of the gains report. */
export const gainsRowsMax = 50_000
/** Restore height: a block number. */
export const restoreHeightMax = 100_000_000
