/**
 * The service's interface as executable rules: the contract the browser, the route handlers
 * and the sandbox share (docs/architecture.md's "The service's rules" summarises it).
 */
export * from "./decimal";
export * from "./enums";
export * from "./enum-schemas";
export * from "./fields";
export * from "./limits";
export * from "./markets";
export * from "./operations";
export * from "./order";
export * from "./order-rules";
export * from "./problem";
export * from "./time-in-force";
export * from "./transfer";
