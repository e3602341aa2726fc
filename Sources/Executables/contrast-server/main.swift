// contrast-server: loads the configuration, starts the HTTP API, stops cleanly on SIGTERM/SIGINT.
import ContrastAPI
import Foundation
import HTTPServer

let configuration: ServiceConfiguration
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
