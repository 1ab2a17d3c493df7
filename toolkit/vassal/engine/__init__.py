"""What every VASSAL room shares: the engine's SequenceEncoder, trait chains, untrusted archives and grid arithmetic.

Imports no other room of :mod:`toolkit.vassal`; of the toolkit, only :mod:`toolkit.hexgrid`.
"""
