rR2(Rd
