import { ValidateBy, ValidationOptions } from 'class-validator';
import { commentBodyProblem } from '../../domain/comment-body';
import { isEmoji } from '../../domain/emoji';

/** GitBook's `Document` as a comment body: `{markdown}` or `{document}`, not empty, not too long. */
export function IsCommentBody(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isCommentBody',
      validator: {
        validate: (value: unknown) => commentBodyProblem(value, 'value') === null,
        defaultMessage: (args) => relative(commentBodyProblem(args?.value, args?.property ?? 'body') ?? 'is invalid', args?.property ?? 'body'),
      },
    },
    options,
  );
}

/** One emoji: the character(s) or the code points in hex (`1f44d`). */
export function IsReactionEmoji(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isReactionEmoji',
      validator: {
        validate: (value: unknown) => isEmoji(value),
        defaultMessage: () => 'each value must be an emoji: a character such as "👍" or its code points such as "1f44d"',
      },
    },
    options,
  );
}

/** The pipe prefixes the property itself: `body: markdown: must be a string`. */
function relative(message: string, property: string): string {
  if (message.startsWith(`${property}: `)) return message.slice(property.length + 2);
  if (message.startsWith(`${property}.`)) return message.slice(property.length + 1);
  return message;
}
