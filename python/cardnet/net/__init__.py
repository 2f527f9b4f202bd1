"""The trio layer of cardnet: thin I/O around the sans-I/O sessions of :mod:`cardnet.protocol`.

- :mod:`.host`: the host (accept, reader, writer, outbox, journal commit, built-in players, timers);
- :mod:`.peer`: the peer (connect, reconnect with backoff) and the events it delivers;
- :mod:`.lines`: the one line reader both use;
- :mod:`.factory`: the one table factory (``create_table`` / ``resume_table``);
- :mod:`.discovery`: LAN discovery over mDNS/DNS-SD (advertise, browse, liveness probes, name lookup).

Importing this package imports none of its modules (each pulls in trio); import them directly.
"""
