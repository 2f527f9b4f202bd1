"""cardnet's network layer (LAN discovery lives in :mod:`cardnet.net.discovery`)."""
