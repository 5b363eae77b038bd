export * from './api.types.js';
export * from './auth.schemas.js';
export * from './constants.js';
export * from './keys.schemas.js';
export * from './records.schemas.js';
export * from './tables.schemas.js';
