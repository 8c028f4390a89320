// The yardstick for "validate one small file, start to exit" in scripts/benchmark: a program that links Foundation,
// reads the file it is given and prints its size, built as the release binaries are (`swiftc -O`, and on Linux
// `-static-stdlib`, as scripts/release-flags.sh links the tools). dce-validate's start-to-exit time and peak RSS are
// compared with this program's.
import Foundation

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/dev/null"
let data = FileManager.default.contents(atPath: path) ?? Data()
print(data.count)
