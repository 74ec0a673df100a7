/** Injection tokens of the read side (apart from the module, so providers can import them freely). */
export const READ_DB = Symbol('READ_DB');
