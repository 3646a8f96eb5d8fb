# In CI: a GitHub annotation for each finding on the script's own line (up to 10 of each level).
# nullglob: a pattern with no match (no configs/ folder) is dropped instead of reaching doctor as a file name.
shopt -s nullglob
files=(scripts/*.sh configs/*.yaml)
# when neither pattern matches, skip doctor (with no file it stops with a usage error, exit 2) and warn instead
if [ "${#files[@]}" -eq 0 ]; then
    echo "::warning::no file matches scripts/*.sh or configs/*.yaml; nothing was checked"
else
    verl-cookbook doctor "${files[@]}" --format github
fi
