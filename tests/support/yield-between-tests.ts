import { afterEach } from "vitest";

/**
 * A test worker answers vitest's RPC (onTaskUpdate and the rest) only when its event loop turns, and
 * vitest runs a file's tests back to back through promises alone. A file of long synchronous tests
 * (the audit's set measurements: minutes in all on two busy cores) then keeps the loop from turning
 * past the RPC's 60-second timeout, and the run ends with "Timeout calling onTaskUpdate" although every
 * test passed. One macrotask turn after each test lets the pending replies in.
 */
afterEach(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
