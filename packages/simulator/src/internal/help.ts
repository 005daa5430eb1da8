/**
 * `vega-sim --help`, laid out as `@effect/cli` lays it out (title, version, usage, description,
 * options), with two differences: colour codes only on a terminal (`@effect/cli` writes them into
 * a pipe or a file too), and none of the paragraphs it adds to every option that say nothing the
 * option's own name, value and description do not ("A user-defined piece of text.", "This setting
 * is optional.", ...).
 *
 * The same as `Help.ts` of the workspace's private `@vega-effect/command-line`, which the apps'
 * commands bundle: this package is published, and cannot depend on a package that is not.
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Span from "@effect/cli/HelpDoc/Span"
import * as Usage from "@effect/cli/Usage"
import * as Arr from "effect/Array"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { stripVTControlCharacters } from "node:util"

/** The command's name and version, as `Command.run` is given them. */
export interface App {
  readonly name: string
  readonly version: string
}

/** Whether the arguments ask for help: `@effect/cli` answers `--help` and `-h` wherever they stand. */
export const requested = (args: ReadonlyArray<string>): boolean => args.includes("--help") || args.includes("-h")

/**
 * What `@effect/cli` says of an option's kind of value (a text, a file...), that it is optional,
 * repeatable or read from a variable: the usage line's brackets and `...`, the value's name and the
 * description already say it.
 */
const FILLER: ReadonlySet<string> = new Set([
  "A user-defined piece of text.",
  "A user-defined piece of text that is confidential.",
  "A true or false value.",
  "An integer.",
  "A floating point number.",
  "A file.",
  "A directory.",
  "A file or directory.",
  "This setting is optional.",
  "This option may be repeated zero or more times.",
  "This argument may be repeated zero or more times.",
  "This option can be set from environment variables.",
  "This argument can be set from environment variables."
])

const DEFAULTS = /^This setting is optional\. Defaults to: (.*)$/s

/** A span's text without its styles. */
const plain = (span: Span.Span): string => {
  switch (span._tag) {
    case "Text":
    case "URI":
      return span.value
    case "Sequence":
      return plain(span.left) + plain(span.right)
    default:
      return plain(span.value)
  }
}

/** The document without filler paragraphs; "This setting is optional. Defaults to: x" as "Default: x". */
export const withoutFiller = (doc: HelpDoc.HelpDoc): HelpDoc.HelpDoc => {
  switch (doc._tag) {
    case "Paragraph": {
      const text = plain(doc.value)
      if (FILLER.has(text)) return HelpDoc.empty
      const fallback = DEFAULTS.exec(text)
      return fallback === null ? doc : HelpDoc.p(`Default: ${fallback[1]}`)
    }
    case "Sequence": {
      const [left, right] = [withoutFiller(doc.left), withoutFiller(doc.right)]
      return HelpDoc.isEmpty(left) ? right : HelpDoc.isEmpty(right) ? left : HelpDoc.sequence(left, right)
    }
    case "DescriptionList":
      return HelpDoc.descriptionList(Arr.map(doc.definitions, ([span, block]) => [span, withoutFiller(block)]))
    case "Enumeration":
      return HelpDoc.enumeration(Arr.map(doc.elements, withoutFiller))
    default:
      return doc
  }
}

/** The whole help as text: in colour with `colours`, plain otherwise. */
export const render = <Name extends string, R, E, A>(
  command: Command.Command<Name, R, E, A>,
  app: App,
  options: { readonly colours: boolean; readonly config?: CliConfig.CliConfig }
): string => {
  const config = options.config ?? CliConfig.defaultConfig
  const usage = Usage.enumerate(Command.getUsage(command), config).map((span) =>
    HelpDoc.p(Span.concat(Span.text("$ "), span))
  )
  const doc = HelpDoc.blocks([
    HelpDoc.h1(Span.code(app.name)),
    HelpDoc.p(`${app.name} ${app.version}`),
    HelpDoc.h1("USAGE"),
    ...usage,
    withoutFiller(Command.getHelp(command, config))
  ])
  const text = HelpDoc.toAnsiText(doc)
  return options.colours ? text : stripVTControlCharacters(text)
}

/** Whether stdout takes colours: a terminal, and `NO_COLOR` not set (https://no-color.org). */
export const stdoutColours = (): boolean =>
  process.stdout.isTTY === true && (process.env.NO_COLOR === undefined || process.env.NO_COLOR === "")

/** Prints the help on stdout, in colour only on a terminal. */
export const print = <Name extends string, R, E, A>(
  command: Command.Command<Name, R, E, A>,
  app: App
): Effect.Effect<void> => Effect.suspend(() => Console.log(render(command, app, { colours: stdoutColours() })))
