"""The shared base every layer may use: language, money, Vietnam time, errors, payment codes.

Nothing here imports anything else of pos_terminal; everything else may import it.
"""
