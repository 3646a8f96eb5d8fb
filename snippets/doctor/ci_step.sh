# In CI: a GitHub annotation for each finding on the script's own line (up to 10 of each level).
# nullglob: a pattern with no match (no configs/ folder) is dropped instead of reaching doctor as a file name.
shopt -s nullglob
verl-cookbook doctor scripts/*.sh configs/*.yaml --format github
