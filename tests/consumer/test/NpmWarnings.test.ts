import { describe, expect, it } from "vitest"
import { warnings } from "../src/Project.js"

describe("npm's warnings on an install", () => {
  it("keeps every warning but the machine's config notices and the expected install-scripts notice", () => {
    const stderr = [
      'npm warn Unknown user config "nodedir". This will stop working in the next major version of npm.',
      "npm warn install-scripts 2 packages have install scripts not yet covered by allowScripts:",
      "npm warn install-scripts   @parcel/watcher@2.6.0 (install: node scripts/build-from-source.js)",
      "npm warn install-scripts   msgpackr-extract@3.0.7 (install: node-gyp-build-optional-packages)",
      "npm warn install-scripts   left-pad@1.3.0 (postinstall: node steal.js)",
      "npm warn install-scripts",
      "npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported",
      "npm warn ERESOLVE overriding peer dependency"
    ].join("\n")
    expect(warnings(stderr)).toEqual([
      "npm warn install-scripts   left-pad@1.3.0 (postinstall: node steal.js)",
      "npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported",
      "npm warn ERESOLVE overriding peer dependency"
    ])
  })
})
