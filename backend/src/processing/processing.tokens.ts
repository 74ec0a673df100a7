/** The processing host (ProcessorRegistry & ProcessorProgress): modules register processors and workers with it. */
export const PROCESSING = Symbol('PROCESSING');
