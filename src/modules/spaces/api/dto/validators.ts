import { ValidateBy, ValidationOptions } from 'class-validator';
import { DomainError } from '@app/common';
import { parseSpaceMergeRules } from '../../../organizations/domain/merge-rules';
import { contentPositionProblem } from '../../domain/space-settings';

function mergeRulesProblem(value: unknown): string | null {
  try {
    parseSpaceMergeRules(value, 'value');
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
}

function fromProblem(name: string, problem: (value: unknown) => string | null, options?: ValidationOptions) {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args) => problem(args?.value) ?? 'is invalid',
      },
    },
    options,
  );
}

/** `{type: inherit}`, `{type: none}` or `{type: rules, rules: [...]}`, as GitBook's MergeRulesSpaceConfiguration. */
export const IsSpaceMergeRules = (options?: ValidationOptions) => fromProblem('isSpaceMergeRules', mergeRulesProblem, options);

/** `{before?, after?}` naming sibling spaces or collections, as GitBook's ContentPosition. */
export const IsContentPosition = (options?: ValidationOptions) => fromProblem('isContentPosition', contentPositionProblem, options);
