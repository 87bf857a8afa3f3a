import type { ExecutionContext } from '@nestjs/common';
import { HandlerMemo } from './handler-memo';

class Parent {
  get(): void {}
  list(): void {}
}
class Child extends Parent {}

const contextOf = (controller: object, handler: object) => ({ getClass: () => controller, getHandler: () => handler }) as unknown as ExecutionContext;

describe('HandlerMemo', () => {
  it('derives a route value once per controller and handler', () => {
    const memo = new HandlerMemo<string>();
    const derive = jest.fn((handler: { name: string }, controller: { name: string }) => `${controller.name}.${handler.name}`);
    expect(memo.of(contextOf(Parent, Parent.prototype.get), derive)).toBe('Parent.get');
    expect(memo.of(contextOf(Parent, Parent.prototype.get), derive)).toBe('Parent.get');
    expect(memo.of(contextOf(Parent, Parent.prototype.list), derive)).toBe('Parent.list');
    expect(derive).toHaveBeenCalledTimes(2);
  });

  it('keeps a subclassed controller apart from its parent, though they share the handler function', () => {
    const memo = new HandlerMemo<string>();
    const derive = (handler: { name: string }, controller: { name: string }) => `${controller.name}.${handler.name}`;
    expect(memo.of(contextOf(Parent, Parent.prototype.get), derive)).toBe('Parent.get');
    expect(memo.of(contextOf(Child, Child.prototype.get), derive)).toBe('Child.get');
  });

  it('remembers falsy values too', () => {
    const memo = new HandlerMemo<boolean>();
    const derive = jest.fn(() => false);
    memo.of(contextOf(Parent, Parent.prototype.get), derive);
    expect(memo.of(contextOf(Parent, Parent.prototype.get), derive)).toBe(false);
    expect(derive).toHaveBeenCalledTimes(1);
  });
});
