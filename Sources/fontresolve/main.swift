import FontRegCLI
import Glibc

exit(FontResolveMain.run(Array(CommandLine.arguments.dropFirst())))
