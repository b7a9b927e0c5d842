import tseslint from 'typescript-eslint';

// Only the rules the compiler cannot give: a promise nobody awaits (its failure is lost and its
// ordering is a race) and a promise passed where a plain value is expected. Style is left to review.
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'native/**', 'models/**', 'src/admin/ui/**', '**/*.mjs', '**/*.js'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
    },
  },
);
