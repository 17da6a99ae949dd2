import FontRegServer

#if canImport(Glibc)
    import Glibc
#endif

exit(FontRegDaemon.main(arguments: Array(CommandLine.arguments.dropFirst())))
