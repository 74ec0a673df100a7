export * from './accounts';
export * from './api';
export * from './business-profile';
export * from './constants';
export * from './events';
export * from './forms';
export * from './service-categories';
