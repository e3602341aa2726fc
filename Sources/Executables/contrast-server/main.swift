// contrast-server: loads the configuration, starts the HTTP API, stops cleanly on SIGTERM/SIGINT.
import ContrastAPI
import Foundation
import HTTPServer

let configuration: ServiceConfiguration
#if os(Linux)
// Without /proc, Swift on Linux reads no command-line arguments (they come from
// /proc/self/cmdline) and finds no resource bundle (beside /proc/self/exe): the server would run
// on ./config.json whatever flags were given, skip its resource check, and stop with a trap at
// the first request that needs the bundle (a hostile pass, in a mount namespace without /proc).
// Every container runtime mounts /proc; without it, the server does not start.
if ServerRunner.executablePath() == nil {
    FileHandle.standardError.write(Data("contrast-server: /proc is not mounted: the server reads its command line and finds its resource bundle through /proc/self; run it with /proc mounted\n".utf8))
    exit(2)
}
#endif
// The start's resource check, run by the server in a child process (ServerRunner): exit 2 with
// the reasons when a bundled resource cannot be used.
if CommandLine.arguments.dropFirst().first == "--check-resources" {
    let problems = ContrastService.resourceContentProblems()
    for problem in problems { FileHandle.standardError.write(Data("contrast-server: \(problem)\n".utf8)) }
    exit(problems.isEmpty ? 0 : 2)
}
if CommandLine.arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
    print(ServiceConfiguration.usage)
    exit(0)
}
do {
    configuration = try ServiceConfiguration.load(
        arguments: Array(CommandLine.arguments.dropFirst()),
        environment: ProcessInfo.processInfo.environment)
} catch {
    FileHandle.standardError.write(Data("contrast-server: \(error)\n".utf8))
    exit(2)
}

let runner = ServerRunner(configuration: configuration)
exit(runner.run())
