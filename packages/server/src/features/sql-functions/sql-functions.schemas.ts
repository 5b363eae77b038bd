// The definition schemas live in the shared package (the console's form validates with the same ones).
export {
  type CallRule,
  type SqlFunction,
  type SqlFunctionInput,
  type SqlFunctionMode,
  type SqlFunctionParam,
  type SqlFunctionReturns,
  sqlFunctionInputSchema,
  type TypedName,
} from '@basalt/shared';
