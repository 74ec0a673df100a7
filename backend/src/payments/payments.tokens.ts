/** The active PaymentGateway (stripe, simulated, or the unavailable stand-in). */
export const PAYMENT_GATEWAY = Symbol('PAYMENT_GATEWAY');
/** The secret webhook signatures are verified (and, in simulated mode, made) with. */
export const WEBHOOK_SIGNING_SECRET = Symbol('WEBHOOK_SIGNING_SECRET');
