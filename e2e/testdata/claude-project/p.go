package p

func One() int { return 1 }
