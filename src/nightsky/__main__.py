from nightsky.cli import main

main()
