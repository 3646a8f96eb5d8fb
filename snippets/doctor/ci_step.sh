# In CI: one GitHub annotation per finding, on the script's own line.
verl-cookbook doctor scripts/*.sh configs/*.yaml --format github
