from pos_terminal.cli import main

main(prog_name="pos-terminal")
