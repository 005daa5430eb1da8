/**
 * What a package README promises a user, read from the README itself so that a README that drifts
 * from the code fails: the install commands of its "Install" section, its runnable examples
 * (fenced as `ts runnable`), each with the output it shows (the next block fenced as `text output`,
 * where `…` stands for any text within a line), and snippets that need a real node (fenced as
 * `ts check`: type-checked, not run).
 */
import { readFileSync } from "node:fs"

interface Fence {
  readonly info: string
  readonly body: string
  /** The `## ` section the block is in. */
  readonly section: string
}

export interface Example {
  readonly code: string
  /** Whether it runs by itself (`ts runnable`) or is only type-checked (`ts check`). */
  readonly runs: boolean
  readonly output: ReadonlyArray<string> | undefined
}

const fences = (markdown: string): ReadonlyArray<Fence> => {
  const found: Array<Fence> = []
  let section = ""
  let open: { info: string; lines: Array<string> } | undefined
  for (const line of markdown.split("\n")) {
    if (open !== undefined) {
      if (line.startsWith("```")) {
        found.push({ info: open.info, body: open.lines.join("\n") + "\n", section })
        open = undefined
      } else open.lines.push(line)
    } else if (line.startsWith("```")) open = { info: line.slice(3).trim(), lines: [] }
    else if (line.startsWith("## ")) section = line.slice(3).trim()
  }
  return found
}

export const read = (path: string): string => readFileSync(path, "utf8")

/** The `npm install …` lines of the README's "Install" section, in order. */
export const installCommands = (markdown: string): ReadonlyArray<ReadonlyArray<string>> =>
  fences(markdown)
    .filter((f) => f.section === "Install" && f.info === "sh")
    .flatMap((f) => f.body.split("\n"))
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => line.startsWith("npm install "))
    .map((line) => line.split(/\s+/))

/** The lines of each `sh` block of the README's `## <section>`, verbatim, block by block. */
export const shellBlocks = (markdown: string, section: string): ReadonlyArray<ReadonlyArray<string>> =>
  fences(markdown)
    .filter((f) => f.section === section && f.info === "sh")
    .map((f) => f.body.trimEnd().split("\n"))

/** The text of the README's `## <section>`, up to the next `## ` heading. */
export const sectionText = (markdown: string, section: string): string => {
  const lines = markdown.split("\n")
  const start = lines.indexOf(`## ${section}`)
  if (start < 0) return ""
  const end = lines.findIndex((line, i) => i > start && line.startsWith("## "))
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n")
}

const packInstall = "npx -y pnpm@10 pack:install"

/**
 * Every `npx -y pnpm@10 pack:install …` command the README shows: a line of a block (without its
 * comment), or inline code in running text (which may wrap).
 */
export const packInstallCommands = (markdown: string): ReadonlyArray<string> => {
  const inBlocks = fences(markdown)
    .flatMap((f) => f.body.split("\n"))
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => line.startsWith(packInstall))
  const text = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "")
  const inText = [...text.matchAll(/`([^`]+)`/g)]
    .map((m) => m[1].replace(/\s+/g, " ").trim())
    .filter((code) => code.startsWith(packInstall))
  return [...inBlocks, ...inText]
}

/** The README's examples, the runnable ones with the output they show, if they show one. */
export const examples = (markdown: string): ReadonlyArray<Example> => {
  const all = fences(markdown)
  return all.flatMap((fence, i) => {
    if (fence.info !== "ts runnable" && fence.info !== "ts check") return []
    const runs = fence.info === "ts runnable"
    const next = all[i + 1]
    const output = runs && next?.info === "text output" ? next.body.trimEnd().split("\n") : undefined
    return [{ code: fence.body, runs, output }]
  })
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** Whether `actual` (stdout) is the `expected` output, line by line, `…` matching any text. */
export const matches = (expected: ReadonlyArray<string>, actual: string): boolean => {
  const lines = actual.trimEnd().split("\n")
  return (
    lines.length === expected.length &&
    expected.every((line, i) => new RegExp(`^${line.split("…").map(escape).join(".*")}$`).test(lines[i].trimEnd()))
  )
}
