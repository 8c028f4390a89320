import DCEPattern
import Foundation
import Testing

/// The PCRE2 a build links is the one it asked for: the system's libpcre2-8 by default, or with the trait
/// PCRE2FromSource the release scripts/fetch-pcre2 fetches, compiled into the program (`scripts/test` runs both).
struct PCRE2LibraryTests {
    @Test func linksThePCRE2TheBuildAskedFor() throws {
        #if PCRE2FromSource
            #expect(PCRE2Library.version == "10.42 2022-12-11")
        #endif
        #if os(Linux)
            // /proc files state no size, so they are read to their end rather than by String(contentsOfFile:).
            let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
            let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
            try #require(maps.contains("libc.so"), "the process's mappings were not read")
            let mapped = maps.contains("libpcre2-8")
            #if PCRE2FromSource
                #expect(!mapped, "the from-source build loaded the system's libpcre2-8")
            #else
                #expect(mapped, "the default build did not load the system's libpcre2-8")
            #endif
        #endif
    }

    /// JIT where PCRE2 has it and a program may write code at run time; the interpreter on iOS and its kin.
    @Test func compilesToMachineCodeWhereThePlatformAllowsIt() throws {
        #if os(Linux) || os(macOS)
            #expect(PCRE2Library.hasJIT)
            #expect(try CompiledPattern("^[0-9]{4}$").isJITCompiled)
        #else
            #expect(!PCRE2Library.hasJIT)
        #endif
    }
}
