/** The validated configuration (`AppConfig`), provided once by ConfigModule. */
export const APP_CONFIG = Symbol('APP_CONFIG');
