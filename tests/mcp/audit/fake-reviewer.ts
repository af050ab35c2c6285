/**
 * The fake model behind the second-opinion measurement: deterministic, and built to answer the way a
 * careful reviewer does rather than by keywords. It reads the definition inside the nonce fence, splits
 * every string in it into sentences, and objects to a sentence only when it is an instruction addressed
 * to the model (an imperative, "you must…", "always…", "never…") *and* that instruction is about
 * something risky: secrets, the conversation or system prompt, other tools or servers, keeping things
 * from the user, decoding hidden text. It quotes that sentence as its evidence.
 *
 * The wave-3 fake flagged any definition that merely contained words such as "system prompt", "api key"
 * or "private key" — 8 benign corpus definitions (an LLM tool's system-prompt parameter, SSH and key
 * tools) were held by it. That showed only that keyword matching flags data; this fake shows what a
 * reviewer that reads instructions adds. It reads English only: it says nothing about other languages,
 * and nothing about how well any real model would do.
 */
export interface FakeVerdict {
  readonly verdict: "safe" | "malicious";
  readonly reasons: string[];
  readonly evidence: string[];
}

const ADDRESSED =
  /^(?:(?:please|important:?|note:?|note for the assistant:?)\s+)?(?:always|never|do not|don't|you (?:must|should|need to|have to)|make sure|be sure|remember to|before (?:you|calling|using|answering)|after (?:each|every)|whenever|when(?:ever)? you|include|provide|paste|copy|send|add|put|append|forward|ask|read|collect|call|use|ignore|keep|replace|set|pass|share|decode|unescape|follow|obey|print|fill)\b/i;

const RISKY: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:passwords?|api[ _-]?keys?|secret keys?|private keys?|ssh keys?|tokens?|credentials|cookies|recovery phrase|seed phrase|one-time code|2fa|otp|\.env|~\/\.\w+|kubeconfig)\b/i, "asks for secrets"],
  [/\b(?:conversation|chat history|dialogue|transcript|system prompt|system message|developer message|your instructions|preamble|previous (?:messages|turns)|earlier (?:messages|turns)|other tools?'? (?:results?|outputs?)|tool (?:results?|outputs?)|everything the user)\b/i, "asks for the conversation or other tools' results"],
  [/\b(?:other|another|every other|all other) (?:tools?|servers?)\b|\b(?:bcc|cc)\b|\binstead of\b|\b(?:replace|change) the (?:recipient|destination|account|address)\b/i, "rules for other tools or recipients"],
  [/\b(?:the user (?:does not|doesn't|need not) (?:need to )?know|without (?:telling|asking|informing)|do not (?:tell|mention|inform|reveal)|don't (?:tell|mention|inform|reveal)|secretly|silently|quietly)\b/i, "hides actions from the user"],
  [/\b(?:decode|base64|hex-?decode|url-?decode|unescape)\b/i, "hidden or encoded instructions"],
];

/**
 * A parameter's description is addressed to the model by its nature (it says what to put in), so any
 * sentence there counts — but a secret there is usually the parameter itself ("the password for the
 * item"); it is risky only when it is to be taken from somewhere else (files, earlier results, the user's chat).
 */
const RISKY_IN_PARAMETER: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:~\/\.\w+|\.env|id_rsa|kubeconfig)\b|\b(?:keys?|tokens?|passwords?|credentials|secrets?)\b.{0,60}\b(?:you (?:have )?(?:seen|read|found)|from (?:the )?(?:environment|files?|earlier|previous|other)|in (?:earlier|previous|other) (?:results|messages|tools?))\b/i, "asks for secrets from elsewhere"],
  ...RISKY.slice(1),
];

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === "object") for (const v of Object.values(value as Record<string, unknown>)) strings(v, out);
  return out;
}

export function fakeReviewerVerdict(userMessage: string): FakeVerdict {
  const fenced = /<untrusted-[0-9a-f]+>\n([\s\S]*)\n<\/untrusted-[0-9a-f]+>/.exec(userMessage)?.[1] ?? "{}";
  let definition: unknown;
  try {
    definition = JSON.parse(fenced);
  } catch {
    return { verdict: "malicious", reasons: ["definition is not readable"], evidence: [] };
  }
  const { description, inputSchema, title } = definition as { description?: unknown; inputSchema?: unknown; title?: unknown };
  const parts: Array<readonly [string, boolean]> = [
    ...strings([title, description]).map((t) => [t, false] as const),
    ...strings(inputSchema).map((t) => [t, true] as const),
  ];
  for (const [text, inParameter] of parts) {
    for (const sentence of text.split(/(?<=[.!?;:])\s+|\n+/)) {
      const s = sentence.trim();
      if (!inParameter && !ADDRESSED.test(s)) continue;
      const risk = (inParameter ? RISKY_IN_PARAMETER : RISKY).find(([pattern]) => pattern.test(s));
      if (risk !== undefined) return { verdict: "malicious", reasons: [risk[1]], evidence: [s.slice(0, 200)] };
    }
  }
  return { verdict: "safe", reasons: [], evidence: [] };
}
