import { describe, expect, it } from "vitest";
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { classifyCallFailure } from "../../../src/mcp/client-manager/classify.js";
import { isConnectionFatal } from "../../../src/mcp/client-manager/errors.js";

/**
 * What the SDK refuses before sending anything (a method the session's protocol version does not
 * have, a capability the server did not declare) says so, and does not end the connection: taken
 * for a transport failure, it closed a healthy server's connection at every such request.
 */
const context = { server: "full", tool: "logging/setLevel", method: "logging/setLevel", timeoutMs: 1000, cancelled: false, redact: (text: string) => text };

describe("classifyCallFailure: the SDK's own refusals", () => {
  for (const code of [SdkErrorCode.MethodNotSupportedByProtocolVersion, SdkErrorCode.CapabilityNotSupported]) {
    it(`${code} is an unsupported request, not a transport failure`, () => {
      const error = classifyCallFailure(new SdkError(code, "Method 'logging/setLevel' is not supported by the negotiated protocol version"), context);
      expect(error).toMatchObject({ code: "MCP_REQUEST_UNSUPPORTED", message: expect.stringMatching(/^MCP server full \(logging\/setLevel\) was not sent: Method 'logging\/setLevel'/) });
      expect(isConnectionFatal(error)).toBe(false);
    });
  }

  it("a closed connection still ends it", () => {
    expect(isConnectionFatal(classifyCallFailure(new SdkError(SdkErrorCode.ConnectionClosed, "closed"), context))).toBe(true);
  });
});
