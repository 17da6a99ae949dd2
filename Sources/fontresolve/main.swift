// fontresolve
