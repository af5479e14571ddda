rRxR
