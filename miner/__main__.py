from miner.cli import main

main()
