import FontRegCLI
import Foundation

exit(FontResolveMain.run(Array(CommandLine.arguments.dropFirst())))
