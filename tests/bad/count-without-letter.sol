r3
