// No code: this target brings in CPCRE2Source when the package trait PCRE2FromSource is on (see Package.swift).
