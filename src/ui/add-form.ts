import { z } from "zod";

/** The page's "add a server" form; turned into the arguments of `mcpvm mcp add`, so the CLI's own parser judges it. */
export const addFormSchema = z
  .object({
    name: z.string(),
    kind: z.enum(["catalog", "stdio", "http", "sse"]),
    command: z.string().optional(),
    /** One argument per entry: no shell parsing, so quoting never changes what runs. */
    args: z.array(z.string()).optional(),
    url: z.string().optional(),
    /** KEY=VALUE, one per entry. */
    env: z.array(z.string()).optional(),
    /** "Name: value", one per entry. */
    headers: z.array(z.string()).optional(),
    cwd: z.string().optional(),
    dir: z.string().optional(),
    as: z.string().optional(),
    description: z.string().optional(),
    connectTimeout: z.string().optional(),
    overwrite: z.boolean().optional(),
  })
  .strict();

export type AddForm = z.infer<typeof addFormSchema>;

const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/** `mcpvm mcp add` argv for the form: empty fields are left out, as a person would leave out the flag. */
export function addArguments(form: AddForm): string[] {
  const argv = [form.name.trim()];
  const flag = (name: string, value: string | undefined) => {
    if (given(value)) argv.push(name, value.trim());
  };
  if (form.kind !== "catalog") argv.push("--transport", form.kind);
  if (form.kind === "http" || form.kind === "sse") argv.push(form.url?.trim() ?? "");
  for (const pair of (form.env ?? []).filter(given)) argv.push("--env", pair.trim());
  for (const header of (form.headers ?? []).filter(given)) argv.push("--header", header.trim());
  flag("--cwd", form.cwd);
  flag("--dir", form.dir);
  flag("--as", form.as);
  flag("--description", form.description);
  flag("--connect-timeout", form.connectTimeout);
  if (form.overwrite === true) argv.push("--overwrite");
  if (form.kind === "stdio") argv.push("--", ...(given(form.command) ? [form.command.trim()] : []), ...(form.args ?? []));
  return argv;
}
