import { ProtobufReader } from "@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-reader.js";

/**
 * OTLP trace export requests, decoded to one flat shape whatever the encoding: protobuf through
 * the reader that ships with @opentelemetry/otlp-transformer (field numbers from
 * opentelemetry/proto/trace/v1/trace.proto), JSON as the OTLP/JSON mapping writes it.
 */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** "" for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** SpanKind as in the proto: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** Status code: 0 unset, 1 ok, 2 error. */
  readonly status: number;
  readonly resource: Readonly<Record<string, string | number | boolean>>;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

function messages(buf: Uint8Array, visit: (field: number, reader: ProtobufReader, wireType: number, buffer: Uint8Array) => boolean): void {
  const reader = new ProtobufReader(buf);
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    if (!visit(fieldNumber, reader, wireType, buf)) reader.skip(wireType);
  }
}

function anyValue(buf: Uint8Array): string | number | boolean {
  let out: string | number | boolean = "";
  messages(buf, (field, reader, wireType, buffer) => {
    if (field === 1) out = reader.readString();
    else if (field === 2) out = reader.readVarint() !== 0;
    else if (field === 3) out = reader.readVarint();
    else if (field === 4 && wireType === 1) {
      out = new DataView(buffer.buffer, buffer.byteOffset + reader.pos, 8).getFloat64(0, true);
      reader.pos += 8;
    } else return false;
    return true;
  });
  return out;
}

function keyValue(buf: Uint8Array, into: Record<string, string | number | boolean>): void {
  let key = "";
  let value: string | number | boolean = "";
  messages(buf, (field, reader) => {
    if (field === 1) key = reader.readString();
    else if (field === 2) value = anyValue(reader.readBytes());
    else return false;
    return true;
  });
  into[key] = value;
}

function span(buf: Uint8Array, resource: Record<string, string | number | boolean>): ReceivedSpan {
  let traceId = "";
  let spanId = "";
  let parentSpanId = "";
  let name = "";
  let kind = 0;
  let status = 0;
  const attributes: Record<string, string | number | boolean> = {};
  messages(buf, (field, reader) => {
    if (field === 1) traceId = hex(reader.readBytes());
    else if (field === 2) spanId = hex(reader.readBytes());
    else if (field === 4) parentSpanId = hex(reader.readBytes());
    else if (field === 5) name = reader.readString();
    else if (field === 6) kind = reader.readVarint();
    else if (field === 9) keyValue(reader.readBytes(), attributes);
    else if (field === 15) {
      messages(reader.readBytes(), (f, r) => {
        if (f !== 3) return false;
        status = r.readVarint();
        return true;
      });
    } else return false;
    return true;
  });
  return { traceId, spanId, parentSpanId, name, kind, attributes, status, resource };
}

export function decodeTraceProtobuf(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  messages(body, (field, reader) => {
    if (field !== 1) return false;
    const resource: Record<string, string | number | boolean> = {};
    const scopeSpans: Uint8Array[] = [];
    messages(reader.readBytes(), (f, r) => {
      if (f === 1) messages(r.readBytes(), (rf, rr) => (rf === 1 ? (keyValue(rr.readBytes(), resource), true) : false));
      else if (f === 2) scopeSpans.push(r.readBytes());
      else return false;
      return true;
    });
    for (const scope of scopeSpans) messages(scope, (f, r) => (f === 2 ? (spans.push(span(r.readBytes(), resource)), true) : false));
    return true;
  });
  return spans;
}

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
}

function jsonAttributes(list: ReadonlyArray<{ key: string; value: JsonAnyValue }> | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    out[key] = value.stringValue ?? value.boolValue ?? (value.intValue === undefined ? value.doubleValue ?? "" : Number(value.intValue));
  }
  return out;
}

/** OTLP/JSON: ids are hex strings, enums numbers, int64 values strings. */
export function decodeTraceJson(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as {
    resourceSpans?: Array<{
      resource?: { attributes?: Array<{ key: string; value: JsonAnyValue }> };
      scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind?: number; attributes?: Array<{ key: string; value: JsonAnyValue }>; status?: { code?: number } }> }>;
    }>;
  };
  const spans: ReceivedSpan[] = [];
  for (const rs of request.resourceSpans ?? []) {
    const resource = jsonAttributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        spans.push({ traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? "", name: s.name, kind: s.kind ?? 0, attributes: jsonAttributes(s.attributes), status: s.status?.code ?? 0, resource });
      }
    }
  }
  return spans;
}

/** Metric names in an OTLP/JSON metrics export request. */
export function metricNamesJson(body: string): string[] {
  const request = JSON.parse(body) as { resourceMetrics?: Array<{ scopeMetrics?: Array<{ metrics?: Array<{ name: string }> }> }> };
  return (request.resourceMetrics ?? []).flatMap((rm) => (rm.scopeMetrics ?? []).flatMap((sm) => (sm.metrics ?? []).map((m) => m.name)));
}
